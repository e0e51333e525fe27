// Case of: the first true branch runs, else Else; break in a Case of leaves the loop around it.
var $r : Collection
$r:=[]
For ($i; 1; 4)
	Case of
		: ($i=1)
			$r.push("one")
		: ($i<3)
			$r.push("less than three")
		: ($i<10)  // 2 would match here too, but the branch above came first
			$r.push("less than ten")
			If ($i=4)
				break
			End if
		Else
			$r.push("never")
	End case
End for
Case of
	: (False)
		$r.push("never")
	Else
		$r.push("else")
End case
Case of
	: (False)
		$r.push("never")
End case
return $r
