// For…End for (cf_looping.md): start, end and step are evaluated once when the loop starts;
// changing the counter in the loop changes the loop; the counter ends past the end.
var $i; $n : Integer
var $r : Collection
$r:=[]
$n:=3
For ($i; 1; $n)
	$n:=10  // no effect on the loop
	$r.push($i)
End for
$r.push("after: "+String($i))  // 4
For ($i; 10; 1; -3)
	$r.push($i)  // 10, 7, 4, 1
End for
For ($i; 5; 1)
	$r.push("never")
End for
For ($i; 2; 2)
	$r.push("once")
End for
For ($i; 1; 10)
	$r.push($i)
	$i:=$i+4  // 1, 6
End for
var $x : Real
For ($x; 0; 1; 0.5)
	$r.push($x)  // 0, 0.5, 1
End for
$k:=0
For ($j; 1; 3)
	$k:=$k+$j  // an undeclared counter
End for
$r.push($k)
$r.push($j)
return $r
