// Formula (FunctionClass.md): a function object; the locals it reads are copied when it is made;
// $1… are its own parameters; This is the object it is called on.
$r:=[]
$x:=10
$f:=Formula($x+$1)
$x:=20  // the formula keeps 10
$r.push($f.call(Null; 5))
$r.push($f.apply(Null; [7]))
$r.push($f.source)
$o:={a: 2; double: Formula(This.a*2)}
$r.push($o.double())
$o.a:=21
$r.push($o.double())
$g:=Formula(Count parameters)
$r.push($g.call(Null; 1; 2; 3))
$h:=New formula($1*$1)
$r.push($h.call(Null; 9))
$r.push(Try($f.call(Null; "a")))  // 10+"a": an error inside the formula
$r.push(Last errors[0].errCode)
return $r
