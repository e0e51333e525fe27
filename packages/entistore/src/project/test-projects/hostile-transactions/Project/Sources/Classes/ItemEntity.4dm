Class extends Entity

// Loops as many passes as the item's pause says (without end for -1) before each save, then
// clears it: only the save that sets a pause waits.
Function event saving()
	var $i; $n : Integer
	$n:=Num(This.pause)
	While (($n<0) | ($i<$n))
		$i:=$i+1
	End while
	This.pause:=0
