int a\
  b = 1;
x = y \  
z; /* c *\
/ after
char c = 'ab
"unterminated
'' L'x' u'y' U"z" u8"w" u8'q' u"" Lfoo
