// A Text variable refuses a number (operators.md: Null cannot be assigned to a Text either).
var $t : Text
$t:="ok"
$t:=12
