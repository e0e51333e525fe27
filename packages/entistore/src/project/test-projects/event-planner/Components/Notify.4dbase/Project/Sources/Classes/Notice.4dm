// A notice as a component makes it: its own classes (cs is the component's), the host's ds.
Class constructor($sender : Text)
	This.sender:=$sender

Function about($title : Text) : Object
	sent:=Num(sent)+1
	var $line : cs.Line
	$line:=cs.Line.new($title)
	return {text: $line.format(This.sender); events: ds.Event.all().length; sent: sent}
