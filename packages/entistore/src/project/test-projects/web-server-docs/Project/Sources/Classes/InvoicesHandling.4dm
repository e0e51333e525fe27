// The handlers of http-request-handler.md's "Example": each names itself, the verb and the URL.
shared singleton Class constructor()

Function handleTheInvoice($request : 4D.IncomingMessage) : 4D.OutgoingMessage
	return This.named("handleTheInvoice"; $request)

Function handleDetails($request : 4D.IncomingMessage) : 4D.OutgoingMessage
	return This.named("handleDetails"; $request)

Function handleInvoices($request : 4D.IncomingMessage) : 4D.OutgoingMessage
	return This.named("handleInvoices"; $request)

Function named($name : Text; $request : 4D.IncomingMessage) : 4D.OutgoingMessage
	var $result:=4D.OutgoingMessage.new()
	$result.setBody("InvoicesHandling."+$name+" "+$request.verb+" "+$request.url)
	return $result
