singleton Class constructor($tag : Text)
	This.tag:=$tag || Random

shared Class constructor
