// If, Case of, While and Until take a Boolean; Undefined and Null count as False, a number is an error.
$r:=[]
If (Null)
	$r.push("never")
End if
If (1)
	$r.push("never")
End if
