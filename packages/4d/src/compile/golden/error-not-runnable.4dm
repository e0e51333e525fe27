// A command that parses but cannot run here raises an error naming it, when reached.
$r:=[]
If (False)
	ALERT("never reached")
End if
$r.push("ok")
CONFIRM("Really?")
return $r
