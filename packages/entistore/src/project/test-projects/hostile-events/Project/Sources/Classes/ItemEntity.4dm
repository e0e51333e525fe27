Class extends Entity

// Loops as many passes as Storage.savingPasses says (without end for -1) before each save.
Function event saving()
	var $i; $n : Integer
	$n:=Num(Storage.savingPasses)
	While (($n<0) | ($i<$n))
		$i:=$i+1
	End while
	This.name:=This.name+"."

// The same before each drop.
Function event dropping()
	var $i; $n : Integer
	$n:=Num(Storage.savingPasses)
	While (($n<0) | ($i<$n))
		$i:=$i+1
	End while
