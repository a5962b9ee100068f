// The fixture model, decoder, interpreter and reporters live in this module.
import Quarry
