#DECLARE -> $o : Object
$o:=New object("a"; 10)
