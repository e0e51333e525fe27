// return ends the method; with a declared result, return sets it (parameters.md).
$r:=[]
$r.push(first)
$r.push(second)
$r.push(third)
$r.push(fourth(5))
$r.push(fifth)
return $r
// ---- method first
#DECLARE() -> $v : Integer
$v:=10
return 20
// ---- method second
#DECLARE() -> $v : Integer
return 10
$v:=20
// ---- method third
#DECLARE() -> $t : Text
For ($i; 1; 10)
	If ($i=3)
		return "stopped at "+String($i)
	End if
End for
// ---- method fourth
#DECLARE($n : Integer) : Integer
return $n*$n
// ---- method fifth
#DECLARE() -> $v : Integer
$v:=7
return
