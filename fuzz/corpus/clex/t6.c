\
foo
a \
b
"a\
