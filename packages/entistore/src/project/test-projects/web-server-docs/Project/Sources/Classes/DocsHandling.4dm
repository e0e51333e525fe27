// A handler of http-request-handler.md's "Example": it names itself, the verb and the URL.
shared singleton Class constructor()

Function handleDocs($request : 4D.IncomingMessage) : 4D.OutgoingMessage
	var $result:=4D.OutgoingMessage.new()
	$result.setBody("DocsHandling.handleDocs "+$request.verb+" "+$request.url)
	return $result
