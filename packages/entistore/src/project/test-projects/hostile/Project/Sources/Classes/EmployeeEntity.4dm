Class extends Entity

// Its task's getters through aliases (not exposed: read by code only).
Alias taskHeavy task.heavy
Alias taskEndless task.endless

// A getter that loops at each row: a filter or a sort on it calls it for every employee.
exposed Function get slow() : Integer
	var $i; $n : Integer
	For ($i; 1; 20000)
		$n:=$n+($i%3)
	End for
	return $n+Length(This.lastname)
