shared singleton Class constructor()

// ClassFunctions.md, "Using an entity selection to get a list" (the list as text).
exposed onHTTPGet Function buildShoppingList($products : cs.ProductSelection) : Text
	var $p : cs.ProductEntity
	var $content : Text

	$content:=""

	For each ($p; $products)
		$content:=$content+" "+$p.manufacturer+" - "+$p.name
		$content:=$content+Char(Carriage return)
	End for each

	return $content
