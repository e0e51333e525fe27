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

// Loops as many passes as Storage.constructorPasses says (without end for -1) when a new item is
// made, then notes it.
Class constructor()
	var $i; $n : Integer
	$n:=Num(Storage.constructorPasses)
	While (($n<0) | ($i<$n))
		$i:=$i+1
	End while
	This.note:="made"

// The same with Storage.touchedPasses when its size changes, which it notes.
Function event touched size($event : Object)
	var $i; $n : Integer
	$n:=Num(Storage.touchedPasses)
	While (($n<0) | ($i<$n))
		$i:=$i+1
	End while
	This.note:=String(This.note)+" resized"

// The same with Storage.afterPasses once an item is saved, then counted in Storage.afterSaves.
Function event afterSave($event : Object)
	var $i; $n : Integer
	$n:=Num(Storage.afterPasses)
	While (($n<0) | ($i<$n))
		$i:=$i+1
	End while
	Use (Storage)
		Storage.afterSaves:=Num(Storage.afterSaves)+1
	End use
