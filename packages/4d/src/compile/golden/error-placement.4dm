// break outside a loop and Super outside a class are reported, and fail when reached.
$r:=[]
If (False)
	break
End if
$r.push("the misplaced break was not reached")
Super.f()
