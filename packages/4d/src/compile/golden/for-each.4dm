// For each…End for each (cf_looping.md): the number of passes is fixed at the start; begin and
// end bound a collection's; While is tested before each pass, Until after.
var $r; $col; $col2 : Collection
var $item : Text
$r:=[]
// A collection that grows in the loop: the added elements are not looped over; a change ahead is seen.
$col:=[1; 2; 3]
For each ($v; $col)
	$r.push($v)
	If ($v=1)
		$col.push(99)
		$col[2]:=30
	End if
End for each
// The doc's begin/end example.
$col:=New collection("a"; "b"; "c"; "d"; "e")
$col2:=New collection(1; 2; 3)
For each ($item; $col; 0; 3)
	$col2.push($item)
End for each
For each ($item; $col; -2; -1)
	$col2.push($item)
End for each
$r.push($col2)  // [1,2,3,"a","b","c","d"]
// The doc's While and Until examples.
$colNum:=New collection(1; 2; 3; 4; 5; 6; 7; 8; 9; 10)
$total:=0
For each ($num; $colNum) While ($total<30)
	$total:=$total+$num
End for each
$r.push($total)  // 36
$total:=1000
For each ($num; $colNum) Until ($total>30)
	$total:=$total+$num
End for each
$r.push($total)  // 1001
// An object's property names, in the order they were made; properties added meanwhile are not.
$o:={b: 1; a: 2}
For each ($k; $o)
	$r.push($k)
	$o.z:=0
End for each
// Null loops no times.
For each ($v; Null)
	$r.push("never")
End for each
// break and continue.
For each ($v; [1; 2; 3; 4; 5])
	If ($v=2)
		continue
	End if
	If ($v=4)
		break
	End if
	$r.push($v*10)
End for each
return $r
