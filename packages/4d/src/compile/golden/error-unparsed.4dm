// A line that does not parse fails when reached, not before (4D's interpreter): the lines
// before it run, and the problem is reported when the file is compiled.
$r:=[]
If (False)
	$x:=1 +* 2
End if
$r.push("ran past the bad line not reached")
$y:=(3 +
return $r
