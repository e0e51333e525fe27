// http-rules.md, "Current rules": the rules in force, read with WEB Server.rules.
shared singleton Class constructor()

exposed Function rules() : Collection
	var $rules : Collection
	$rules:=WEB Server.rules //current rules
	return $rules
