// The class syntax of 4D v18: no parentheses, numbered parameters.
Class extends Polygon

Class constructor
	C_LONGINT($1)
	Super($1; $1)
	This.name:="Square"

Function getArea
	C_LONGINT($0)
	$0:=This.height*This.width

Function describe
	C_TEXT($0; $1)
	$0:=$1+": "+String(This.getArea())
