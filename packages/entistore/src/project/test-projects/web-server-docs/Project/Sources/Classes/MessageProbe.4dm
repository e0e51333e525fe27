// What a handler receives (IncomingMessageClass.md) and what it may answer (OutgoingMessageClass.md).
shared singleton Class constructor()

// The request's members, as JSON.
Function echo($request : 4D.IncomingMessage) : 4D.OutgoingMessage
	var $result:=4D.OutgoingMessage.new()
	var $picture:=$request.getPicture()
	$result.setBody({url: $request.url; urlPath: $request.urlPath; urlQuery: $request.urlQuery; verb: $request.verb; headers: $request.headers; contentType: $request.getHeader("CONTENT-TYPE"); text: $request.getText(); pictureIsNull: $picture=Null})
	return $result

// The query's parameters as IncomingMessageClass.md reads them ($r is its name for the request).
Function query($r : 4D.IncomingMessage) : Object
	var $result:={urlQuery: $r.urlQuery}
	If ($r.urlQuery.myparams#Null)
		$result.test:=Value type(JSON Parse($r.urlQuery.myparams))=Is collection
	End if 
	If ($r.urlQuery.mdcode#Null)
		$result.test:=Length($r.urlQuery.mdcode)
	End if 
	return $result

// The answer the query's "kind" names.
Function answer($request : 4D.IncomingMessage) : Variant
	var $result:=4D.OutgoingMessage.new()
	var $blob : Blob
	Case of 
		: ($request.urlQuery.kind="text")
			$result.setBody("plain")
		: ($request.urlQuery.kind="blob")
			TEXT TO BLOB("bytes"; $blob; UTF8 text without length)
			$result.setBody($blob)
		: ($request.urlQuery.kind="object")
			$result.setBody({a: 1})
		: ($request.urlQuery.kind="typed")
			$result.setBody("<b>hi</b>")
			$result.setHeader("Content-Type"; "text/html")
		: ($request.urlQuery.kind="property")
			$result.body:="assigned"
		: ($request.urlQuery.kind="status")
			$result.setBody("made")
			$result.setStatus(201)
			return {status: $result.status; headers: $result.headers; body: $result.body}
		: ($request.urlQuery.kind="badBody")
			$result.setBody(42)
		: ($request.urlQuery.kind="badHeader")
			$result.setHeader("X-Number"; 5)
		: ($request.urlQuery.kind="badStatus")
			$result.setStatus("teapot")
		: ($request.urlQuery.kind="json")
			return $request.getJSON()
		: ($request.urlQuery.kind="value")
			return {any: "value"}
		: ($request.urlQuery.kind="nothing")
			return 
	End case 
	return $result
