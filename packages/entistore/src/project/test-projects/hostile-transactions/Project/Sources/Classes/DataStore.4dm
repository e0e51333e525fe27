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

// Renames item $first, then saves item $second with a pause of $pause passes (-1: without end)
// and creates an item named $name, all in one transaction, validated at the end; returns the
// new item's name as saved.
exposed Function saveInTransaction($first : Integer; $name : Text; $second : Integer; $pause : Integer) : Text
	var $renamed; $paused; $made : cs.ItemEntity
	var $result : Object
	ds.startTransaction()
	$renamed:=ds.Item.get($first)
	$renamed.name:=$name
	$result:=$renamed.save()
	$paused:=ds.Item.get($second)
	$paused.pause:=$pause
	$result:=$paused.save()
	$made:=ds.Item.new()
	$made.name:=$name+" made"
	$result:=$made.save()
	ds.validateTransaction()
	return $made.name
