/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every classifier, in the order it runs (smatch's check_list.h): one
 * line per analyzer/check_*.c, naming its `const struct classifier`
 * (whose .name is what --disable and --list-classifiers use).  The order is the order the constructors used to run in
 * (link order), kept so that every answer stays the same.  `scan --disable NAME` turns one off;
 * `scan --list-classifiers` prints this list.
 *
 * Included with CLASSIFIER(variable) defined.
 */
CLASSIFIER(context_classifier)
CLASSIFIER(effective_classifier)
CLASSIFIER(gfp_param_classifier)
CLASSIFIER(lifetime_classifier)
CLASSIFIER(shrinker_classifier)
CLASSIFIER(sleep_classifier)
CLASSIFIER(wrapper_classifier)
