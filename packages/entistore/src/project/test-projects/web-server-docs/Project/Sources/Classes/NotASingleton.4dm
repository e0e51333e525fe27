// A class that is no singleton: no HTTP request handler (http-request-handler.md).
Class constructor()

Function handle($request : 4D.IncomingMessage) : Text
	return "never"
