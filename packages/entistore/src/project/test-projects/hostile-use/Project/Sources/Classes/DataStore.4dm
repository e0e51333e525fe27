Class extends DataStoreImplementation

// Items and lots to read.
exposed Function seed($count : Integer) : Integer
	var $i : Integer
	var $item : cs.ItemEntity
	var $lot : cs.LotEntity
	For ($i; 1; $count)
		$item:=ds.Item.new()
		$item.name:="Item"+String($i)
		$item.save()
		$lot:=ds.Lot.new()
		$lot.name:="Lot"+String($i)
		$lot.save()
	End for
	return ds.Item.all().length

// Storage's counter, and its lockdown flag, set again.
exposed Function reset()
	Use (Storage)
		Storage.counter:=0
		Storage.lockdown:=False
	End use

exposed Function counter() : Integer
	return Storage.counter

// Adds 1 to Storage's counter `$times` times, each in a Use block that reads the counter, loops
// `$passes` passes, then writes it: two such calls whose blocks ran at once would lose increments.
exposed Function increment($times : Integer; $passes : Integer) : Integer
	var $k; $i; $n : Integer
	For ($k; 1; $times)
		Use (Storage)
			$n:=Storage.counter
			For ($i; 1; $passes)
			End for
			Storage.counter:=$n+1
		End use
	End for
	return Storage.counter

// Closes Item for `$passes` passes: Item's restrict, which reads Storage, sees nothing meanwhile.
exposed Function lockdown($passes : Integer) : Boolean
	var $i : Integer
	Use (Storage)
		Storage.lockdown:=True
		For ($i; 1; $passes)
		End for
		Storage.lockdown:=False
	End use
	return Storage.lockdown
