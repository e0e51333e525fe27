// A singleton that is not shared: no HTTP request handler (http-request-handler.md).
singleton Class constructor()

Function handle($request : 4D.IncomingMessage) : Text
	return "never"
