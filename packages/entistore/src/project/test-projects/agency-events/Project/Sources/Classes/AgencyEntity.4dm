Class extends Entity

// A new agency, before its values are set (4D 20 R10): its defaults.
Class constructor()
	This.status:="new"

Function event touched address($event : Object)
	If (This.status#"new")
		This.status:="moved"
	End if

Function event validateSave name($event : Object) : Object
	If (Length(String(This.name))=0)
		return {errCode: 101; message: "An agency has a name"; \
			extraDescription: {attribute: $event.attributeName; kind: $event.kind}}
	End if

Function event validateSave($event : Object) : Object
	If (This.category="banned")
		return {errCode: 102; message: "This category is not allowed"; seriousError: True}
	End if

// The profile's vector, recomputed when a profile attribute was touched. The AI component is
// not there: its error is caught and a vector of the words is kept instead.
Function event saving($event : Object) : Object
	var $profile : Collection:=["name"; "address"; "category"; "department"]
	var $touched : Collection:=This.touchedAttributes()
	var $changed : Boolean:=False
	var $attribute : Text
	For each ($attribute; $profile)
		If ($touched.indexOf($attribute)>=0)
			$changed:=True
		End if
	End for each
	If ($changed)
		Try
			var $client : Object:=cs.AIKit.OpenAI.new()
			This.vector:=$client.embeddings.create(This.profileText()).vector
			This.vectorSource:="AIKit"
		Catch
			This.vector:={words: Split string(This.profileText(); " "; sk ignore empty strings).length}
			This.vectorSource:="local: "+Last errors[0].message
		End try
	End if
	If (Session#Null)
		This.updatedBy:=Session.userName
	End if

Function event saving department($event : Object) : Object
	If (This.department="00")
		return {errCode: 103; message: "There is no department 00"}
	End if

Function event afterSave($event : Object)
	Use (Storage)
		If (Storage.saved=Null)
			Storage.saved:=New shared collection()
		End if
		Storage.saved.push($event.kind+" "+$event.dataClassName+" "+$event.saveStatus)
	End use

Function event validateDrop($event : Object) : Object
	If (This.category="flagship")
		return {errCode: 104; message: "A flagship agency is never dropped"}
	End if

Function event dropping($event : Object) : Object
	If (This.status="locked")
		return {errCode: 105; message: "A locked agency is kept"}
	End if

Function event afterDrop($event : Object)
	Use (Storage)
		Storage.dropped:=This.name
	End use

Function profileText() : Text
	return String(This.name)+" "+String(This.address)+" "+String(This.category)+" "+String(This.department)
