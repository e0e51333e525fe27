shared singleton Class constructor()
	This.built:=0

exposed Function buildVehicle($type : Text) : Object
	Use (This)
		This.built+=1
	End use
	return {type: $type; number: This.built}

exposed onHTTPGet Function count() : Integer
	return This.built

Function reset()
	Use (This)
		This.built:=0
	End use
