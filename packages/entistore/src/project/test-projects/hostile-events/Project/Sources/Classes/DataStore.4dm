Class extends DataStoreImplementation

// Items and lots to read.
exposed Function seed($count : Integer) : Integer
	var $i : Integer
	var $item : cs.ItemEntity
	var $lot : cs.LotEntity
	For ($i; 1; $count)
		$item:=ds.Item.new()
		$item.name:="Item"+String($i)
		$item.size:=$i
		$item.save()
		$lot:=ds.Lot.new()
		$lot.name:="Lot"+String($i)
		$lot.save()
	End for
	return ds.Item.all().length

// How many passes Item's restrict, and its saving and dropping events, loop (-1: without end).
exposed Function passes($restrict : Integer; $saving : Integer)
	Use (Storage)
		Storage.restrictPasses:=$restrict
		Storage.savingPasses:=$saving
	End use

// Reads Item from code: its restrict runs first.
exposed Function countItems() : Integer
	return ds.Item.all().length

// Creates an item from code: its saving event runs before the write.
exposed Function addItem($name : Text) : Text
	var $item : cs.ItemEntity
	var $result : Object
	$item:=ds.Item.new()
	$item.name:=$name
	$item.size:=1
	$result:=$item.save()
	return $item.name

// Drops an item from code: its dropping event runs before the drop.
exposed Function dropItem($key : Integer) : Boolean
	var $result : Object
	$result:=ds.Item.get($key).drop()
	return $result.success
