// A plain class: nothing of it is seen over REST.
Class constructor()

exposed Function slug($text : Text) : Text
	return Lowercase($text)
