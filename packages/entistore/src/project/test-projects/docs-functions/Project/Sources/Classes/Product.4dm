Class extends DataClass

exposed onHTTPGet Function getUserManual($productId : Integer; $type : Text) : Text
	return "/RESOURCES/User manuals/product_"+String($productId)+"."+$type

exposed onHTTPGet Function manualOf($product : cs.ProductEntity) : Text
	return "/RESOURCES/User manuals/"+$product.name+".pdf"
