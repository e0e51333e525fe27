Class extends Entity

$stray:="a statement outside any function"

Function broken($x : 
	$skipped:="body of a broken header"
	$alsoSkipped:=1

Function good() : Text
	If ($open)
		$a:=1
	return "unclosed If above"

Function stray()
	$x:=1
	End if
	$y:=2

Function bad($a : Integer)
	$a:=)
	return $a

property
Alias incomplete
Class extends Other
