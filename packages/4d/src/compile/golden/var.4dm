// var (variables.md): typed variables start with their type's default; var $x:=value infers the
// type of a literal (a number gives a Real); a declaration types the variable in the whole method.
var $t : Text
var $i : Integer
var $d : Date
var $o : Object
var $c : Collection
var $b : Boolean
var $v
$r:=[$t; $i; String($d); $o; $c; $b; $v]
var $n:=10
$n:=$n/4
$r.push($n)  // 2.5: a Real
var $s:="abc"
$r.push(Value type($s)=Is text)
For ($k; 1; 2)
	var $kept : Integer
	$kept:=$kept+1  // var does not reset it
End for
$r.push($kept)
var $late : Integer
$r.push($late)
return $r
