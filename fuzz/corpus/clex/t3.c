café été ​   x € ý ́z 　w � \u00e9x a\u00e9 \u0041 \
