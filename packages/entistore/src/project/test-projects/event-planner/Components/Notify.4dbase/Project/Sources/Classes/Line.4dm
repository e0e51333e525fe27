Class constructor($title : Text)
	This.title:=$title

Function format($sender : Text) : Text
	return "["+$sender+"] "+This.title
