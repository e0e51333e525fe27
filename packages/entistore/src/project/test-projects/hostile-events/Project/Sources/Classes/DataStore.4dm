Class extends DataStoreImplementation

// Items, each with a part, and lots to read.
exposed Function seed($count : Integer) : Integer
	var $i : Integer
	var $item : cs.ItemEntity
	var $lot : cs.LotEntity
	var $part : cs.PartEntity
	For ($i; 1; $count)
		$item:=ds.Item.new()
		$item.name:="Item"+String($i)
		$item.size:=$i
		$item.save()
		$lot:=ds.Lot.new()
		$lot.name:="Lot"+String($i)
		$lot.save()
		$part:=ds.Part.new()
		$part.name:="Part"+String($i)
		$part.item:=$item
		$part.save()
	End for
	return ds.Item.all().length

// How many passes Item's restrict, and its saving and dropping events, loop (-1: without end).
exposed Function passes($restrict : Integer; $saving : Integer)
	Use (Storage)
		Storage.restrictPasses:=$restrict
		Storage.savingPasses:=$saving
	End use

// How many passes Item's constructor, its touched event (of size) and its afterSave event loop.
exposed Function eventPasses($constructor : Integer; $touched : Integer; $after : Integer)
	Use (Storage)
		Storage.constructorPasses:=$constructor
		Storage.touchedPasses:=$touched
		Storage.afterPasses:=$after
	End use

// How many times an item's afterSave event has ended.
exposed Function afterSaves() : Integer
	return Num(Storage.afterSaves)

// Follows a part's relation to its item: Item's restrict runs first.
exposed Function itemOfPart($key : Integer) : Text
	var $item : cs.ItemEntity
	$item:=ds.Part.get($key).item
	If ($item=Null)
		return "none"
	End if
	return $item.name

// Narrows a selection of items read before Item's restrict loops: the restrict, which the
// narrowed selection keeps to, runs again first.
exposed Function narrowItems($passes : Integer; $below : Integer) : Integer
	var $items : cs.ItemSelection
	$items:=ds.Item.all()
	Use (Storage)
		Storage.restrictPasses:=$passes
	End use
	return $items.query("size < :1"; $below).length

// Reads Item from code: its restrict runs first.
exposed Function countItems() : Integer
	return ds.Item.all().length

// Creates an item from code: its constructor runs when it is made, its touched event when its
// size is set, its saving event before the write and its afterSave event after it.
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
