Class extends Entity

// A getter that loops 10 million passes for the first task only: one call runs long.
exposed Function get heavy() : Integer
	var $i; $n : Integer
	If (This.ID=1)
		For ($i; 1; 10000000)
			$n:=$n+($i%3)
		End for
	End if
	return $n+This.ID

// A getter that never ends for the second task.
exposed Function get endless() : Integer
	var $n : Integer
	If (This.ID=2)
		While (True)
			$n:=$n+1
		End while
	End if
	return This.ID

// A computed title whose setter loops 10 million passes for a title that starts with "heavy",
// and never ends for one that starts with "endless": one REST write of it, or one assignment in
// code, runs long.
exposed Function get label() : Text
	return This.title

Function set label($value : Text)
	var $i; $n : Integer
	Case of
		: (Position("heavy"; $value)=1)
			For ($i; 1; 10000000)
				$n:=$n+($i%3)
			End for
		: (Position("endless"; $value)=1)
			While (True)
				$n:=$n+1
			End while
	End case
	This.title:=$value
