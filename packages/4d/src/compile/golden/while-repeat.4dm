// While tests before each pass, Repeat…Until after (cf_looping.md); break and continue.
var $i : Integer
var $r : Collection
$r:=[]
While (False)
	$r.push("never")
End while
$i:=0
While ($i<5)
	$i:=$i+1
	If ($i=2)
		continue
	End if
	If ($i=4)
		break
	End if
	$r.push($i)  // 1, 3
End while
$i:=0
Repeat
	$i:=$i+1
	$r.push("repeat "+String($i))  // runs once though the test is True at once
Until (True)
$i:=0
Repeat
	$i:=$i+1
	If ($i=2)
		continue  // goes to the test
	End if
	$r.push($i)
Until ($i>=3)
// Nested loops: break leaves the inner one.
For ($a; 1; 2)
	For ($b; 1; 3)
		If ($b=2)
			break
		End if
		$r.push(String($a)+"."+String($b))
	End for
End for
// Undefined as a condition is False.
While ($undefined.x)
	$r.push("never")
End while
return $r
