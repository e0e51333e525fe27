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
