Class extends DataClass

// ClassFunctions.md, "Returning a document".
exposed onHTTPGet Function getUserManual($productId : Integer; $type : Text) : 4D.OutgoingMessage

	var $file : 4D.File
	var $response:=4D.OutgoingMessage.new()
	var $doc:="/RESOURCES/User manuals/product_"+String($productId)

	Case of 
		: ($type="pdf")
			$file:=File($doc+".pdf")
			$response.setBody($file.getContent())  // This is binary content 
			$response.setHeader("Content-Type"; "application/pdf")

		: ($type="jpeg")
			$file:=File($doc+".jpeg")
			$response.setBody($file.getContent())  // This is binary content 
			$response.setHeader("Content-Type"; "image/jpeg")
	End case 

	return $response

// ClassFunctions.md, "Using an entity to download a PDF document" (named getUserManual there too).
exposed onHTTPGet Function manualOf($product : cs.ProductEntity) : 4D.OutgoingMessage

	var $file : 4D.File
	var $response:=4D.OutgoingMessage.new()

	$file:=File("/RESOURCES/User manuals/"+$product.name+".pdf")
	$response.setBody($file.getContent())
	$response.setHeader("Content-Type"; "application/pdf")

	return $response

// OutgoingMessageClass.md: a status, a header of its own, an object body as JSON.
exposed onHTTPGet Function notFound($what : Text) : 4D.OutgoingMessage
	var $response:=4D.OutgoingMessage.new()
	$response.setBody({error: $what+" not found"})
	$response.setStatus(404)
	$response.setHeader("Cache-Control"; "no-store")
	return $response

// A header name with a line break would end the reply's headers: refused, a 4D error.
exposed onHTTPGet Function injected() : 4D.OutgoingMessage
	var $response:=4D.OutgoingMessage.new()
	$response.setHeader("X-A"+Char(Carriage return)+Char(Line feed)+"Set-Cookie"; "x")
	return $response
