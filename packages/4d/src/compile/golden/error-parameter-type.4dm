// A named parameter of the wrong type is an error when the method is called (parameters.md).
$r:=wants_text(42)
// ---- method wants_text
#DECLARE($value : Text) : Text
return $value
