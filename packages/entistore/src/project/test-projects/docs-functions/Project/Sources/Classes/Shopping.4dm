shared singleton Class constructor()

// ClassFunctions.md, "Using an entity selection to get a list".
exposed onHTTPGet Function buildShoppingList($products : cs.ProductSelection) : 4D.OutgoingMessage

	var $p : cs.ProductEntity
	var $content : Text
	var $response:=4D.OutgoingMessage.new()

	$content:=""

	For each ($p; $products)
		$content:=$content+" "+$p.manufacturer+" - "+$p.name
		$content:=$content+Char(Carriage return)
	End for each 

	$response.setBody($content)
	$response.setHeader("Content-Type"; "text/plain")

	return $response
