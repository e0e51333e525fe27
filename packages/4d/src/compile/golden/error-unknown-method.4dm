// A method that does not exist, and a member function that does not exist.
$o:={}
$x:=Try($o.nothing())
$e:=Last errors[0].errCode
no_such_method(1)
