// The fixture model, decoder, interpreter and reporters live in this module.
@_exported import Quarry
