x = 'a\
' "abc\
def" 0x12\
34 ..\
. <\
<= /\
/ cmt
/\
* blk *\
/ e