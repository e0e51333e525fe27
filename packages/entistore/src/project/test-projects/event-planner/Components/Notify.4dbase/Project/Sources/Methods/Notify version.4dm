//%attributes = {"invisible":true,"shared":true}
#DECLARE() : Text
return "Notify "+kind

