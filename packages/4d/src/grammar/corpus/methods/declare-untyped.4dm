#DECLARE($url : Text; $header; \
	$user : Text) \
	-> $accepted : Boolean
$accepted:=($user#"")
