// The service level: the days a ticket may stay open, read once from Setting and kept for every
// session (a shared singleton).
shared singleton Class constructor()
	var $setting : cs.SettingEntity:=ds.Setting.get(1)
	This.slaDays:=($setting=Null) ? 5 : $setting.slaDays

exposed Function days() : Integer
	return This.slaDays

exposed shared Function change($days : Integer) : Integer
	If ($days<1)
		throw(422; "A service level is one day or more")
	End if
	This.slaDays:=$days
	return This.slaDays
