// A file saved on Windows: CRLF line endings.
var $x : Integer
If ($x=0)
	$x:=1  // a comment
Else 
	$x:=2
End if 
$y:=$x+\
	1
