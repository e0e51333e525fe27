// The HTTP request handler of 4D's pages (IncomingMessageClass.md, http-request-handler.md).
shared singleton Class constructor()
	
Function gettingStarted($request : 4D.IncomingMessage) : 4D.OutgoingMessage
	
	var $result:=4D.OutgoingMessage.new()
	var $body : Text
	
	$body:="Called URL: "+$request.url+"\n"
	$body+="The parameters are received as an object: \n"+JSON Stringify($request.urlQuery; *)+"\n"
	$body+="The verb is: "+$request.verb+"\n"
	$body+="There are "+String($request.urlPath.length)+" url parts - Url parts are: "+$request.urlPath.join(" - ")+"\n\n"
	
	$result.setBody($body)
	$result.setHeader("Content-Type"; "text/plain")
	
	return $result
	
Function upload($request : 4D.IncomingMessage) : 4D.OutgoingMessage
	
	var $response:=4D.OutgoingMessage.new()
	var $data : Object
	
	$data:=$request.getJSON()
	$response.setBody({fileName: $request.urlQuery.fileName; type: $request.getHeader("content-type"); length: Length($request.getText()); name: $data.name; text: $request.getText()})
	$response.setStatus(201)
	$response.setHeader("X-Upload"; "done")
	
	return $response
	
Function staff($request : 4D.IncomingMessage) : 4D.OutgoingMessage
	
	var $response:=4D.OutgoingMessage.new()
	$response.setBody(ds.Employee.query("lastname = :1"; $request.urlPath[1]).orderBy("firstname").toCollection("firstname").extract("firstname").join(", "))
	return $response

// The body's bytes after their size, a longint in Macintosh byte ordering (BLOB commands).
Function frame($request : 4D.IncomingMessage) : 4D.OutgoingMessage
	
	var $response:=4D.OutgoingMessage.new()
	var $body : Blob:=$request.getBlob()
	var $framed : Blob
	LONGINT TO BLOB(BLOB size($body); $framed; Macintosh byte ordering)
	COPY BLOB($body; $framed; 0; 4; BLOB size($body))
	$response.setBody($framed)
	return $response
