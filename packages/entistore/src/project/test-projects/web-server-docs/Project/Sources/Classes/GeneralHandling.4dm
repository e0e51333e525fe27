// HTTP request handlers of 4D's pages: http-request-handler.md ("Example": handle) and
// IncomingMessageClass.md ("Example": gettingStarted, verbatim).
shared singleton Class constructor()

Function handle($request : 4D.IncomingMessage) : 4D.OutgoingMessage
	var $result:=4D.OutgoingMessage.new()
	$result.setBody("GeneralHandling.handle "+$request.verb+" "+$request.url)
	return $result

Function gettingStarted($request : 4D.IncomingMessage) : 4D.OutgoingMessage
    
    var $result:=4D.OutgoingMessage.new()
    var $body : Text
    
    $body:="Called URL: "+$request.url+"\n"
    
    $body+="The parameters are received as an object: \n"+JSON Stringify($request.urlQuery; *)+"\n"
    
    $body+="The verb is: "+$request.verb+"\n"
    
    $body+="There are "+String($request.urlPath.length)+" url parts - Url parts are: "\
    +$request.urlPath.join(" - ")+"\n\n"
    
    
    $result.setBody($body)
    $result.setHeader("Content-Type"; "text/plain")
    
    return $result
