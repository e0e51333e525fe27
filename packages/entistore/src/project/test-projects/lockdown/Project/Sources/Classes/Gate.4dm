// A lockdown switch kept by a shared singleton, set by its shared function (4D runs it inside
// Use (This)).
property closed : Boolean

shared singleton Class constructor()
	This.closed:=False

shared Function close($closed : Boolean)
	This.closed:=$closed
