\ 	
abc \

 x\

y é\
x